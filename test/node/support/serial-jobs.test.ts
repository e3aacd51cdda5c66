import { expect } from 'chai';
import { SerialJobs } from '../../../src/node/support/serial-jobs.ts';

describe('node support: SerialJobs', () => {
  it('runs jobs one after the other in the order asked, a failure not stopping the queue', async () => {
    const jobs = new SerialJobs();
    const order: string[] = [];
    let release!: () => void;
    const first = jobs.run(async () => {
      order.push('a start');
      await new Promise<void>((r) => (release = r));
      order.push('a end');
      return 1;
    });
    const second = jobs.run(async () => {
      order.push('b');
      throw new Error('b failed');
    });
    const third = jobs.run(async () => {
      order.push('c');
      return 3;
    });
    await new Promise((r) => setImmediate(r));
    expect(order).to.deep.equal(['a start']);
    expect(jobs.size).to.equal(3);
    release();
    expect(await first).to.equal(1);
    await second.then(
      () => expect.fail('b should reject'),
      (e: Error) => expect(e.message).to.equal('b failed'),
    );
    expect(await third).to.equal(3);
    expect(order).to.deep.equal(['a start', 'a end', 'b', 'c']);
    expect(jobs.size).to.equal(0);
  });

  it('idle waits for jobs asked for while it waits', async () => {
    const jobs = new SerialJobs();
    const done: number[] = [];
    void jobs.run(async () => {
      await new Promise((r) => setTimeout(r, 5));
      done.push(1);
      void jobs.run(async () => {
        await new Promise((r) => setTimeout(r, 5));
        done.push(2);
      });
    });
    await jobs.idle();
    expect(done).to.deep.equal([1, 2]);
  });
});
