import type { ReceiptMilestoneOption } from '../../../src/core/model/index.ts';
import { aliasAddr, fill, milestoneBlock } from '../codec/fixtures.ts';
import { ms, rejects, validate } from './syntactic-support.ts';

describe('validation: syntactic rules of blocks', () => {
  describe('milestone', () => {
    it('nonce must be 0 (INVALID_NONCE)', () => {
      rejects({ ...milestoneBlock(), nonce: 1n }, 'INVALID_NONCE', 'nonce');
    });

    it('index >= 1', () => {
      const b = milestoneBlock();
      ms(b).index = 0;
      rejects(b, 'VALUE_OUT_OF_RANGE', 'payload.index');
    });

    it('parents must equal the block parents', () => {
      const b = milestoneBlock();
      ms(b).parents = [fill(32, 1), fill(32, 3)];
      rejects(b, 'INVALID_FIELD', 'payload.parents');
      const c = milestoneBlock();
      ms(c).parents = [fill(32, 1)];
      rejects(c, 'INVALID_FIELD', 'payload.parents');
    });

    it('metadata 8193 bytes', () => {
      const b = milestoneBlock();
      ms(b).metadata = fill(8193, 1);
      rejects(b, 'LENGTH_OUT_OF_RANGE', 'payload.metadata');
    });

    it('options: order, duplicates, protocol params target range and size', () => {
      const b = milestoneBlock();
      ms(b).options.reverse();
      rejects(b, 'NOT_SORTED_UNIQUE', 'payload.options[1].type');
      const p = (t: number, params: Uint8Array = new Uint8Array(1)) => {
        const x = milestoneBlock();
        ms(x).options[1] = { type: 1, targetMilestoneIndex: t, protocolVersion: 2, params };
        return x;
      };
      validate(p(101));
      validate(p(130));
      rejects(p(100), 'VALUE_OUT_OF_RANGE', 'payload.options[1].targetMilestoneIndex');
      rejects(p(131), 'VALUE_OUT_OF_RANGE', 'payload.options[1].targetMilestoneIndex');
      rejects(p(110, fill(8193, 0)), 'LENGTH_OUT_OF_RANGE', 'payload.options[1].params');
    });

    it(
      'receipt: deposits >= 1 000 000, Ed25519 only, funds sorted and unique, 1..127, ' +
        'treasury transaction present',
      () => {
        const r = (f: (o: ReceiptMilestoneOption) => void) => {
          const x = milestoneBlock();
          f(ms(x).options[0] as ReceiptMilestoneOption);
          return x;
        };
        rejects(
          r((o) => (o.funds[0]!.deposit = 999_999n)),
          'VALUE_OUT_OF_RANGE',
          'payload.options[0].funds[0].deposit',
        );
        rejects(
          r((o) => (o.funds[1]!.address = aliasAddr(1))),
          'TYPE_NOT_ALLOWED',
          'payload.options[0].funds[1].address.type',
        );
        rejects(
          r((o) => o.funds.reverse()),
          'NOT_SORTED_UNIQUE',
          'payload.options[0].funds[1]',
        );
        rejects(
          r((o) => (o.funds[1]!.tailTransactionHash = o.funds[0]!.tailTransactionHash)),
          'DUPLICATE',
          'payload.options[0].funds[1].tailTransactionHash',
        );
        rejects(
          r((o) => (o.funds = [])),
          'COUNT_OUT_OF_RANGE',
          'payload.options[0].funds',
        );
        rejects(
          r((o) => delete (o as { transaction?: unknown }).transaction),
          'MISSING_FIELD',
          'payload.options[0].transaction',
        );
        rejects(
          r((o) => ((o.transaction as { type: number }).type = 5)),
          'TYPE_NOT_ALLOWED',
          'payload.options[0].transaction.type',
        );
        rejects(
          r((o) => ((o.transaction.output as { type: number }).type = 3)),
          'TYPE_NOT_ALLOWED',
          'payload.options[0].transaction.output.type',
        );
        rejects(
          r((o) => (o.final = 1 as never)),
          'INVALID_FIELD',
          'payload.options[0].final',
        );
      },
    );

    it('signatures: 0, unsorted, same public key twice', () => {
      const b = milestoneBlock();
      ms(b).signatures = [];
      rejects(b, 'COUNT_OUT_OF_RANGE', 'payload.signatures');
      const c = milestoneBlock();
      ms(c).signatures.reverse();
      rejects(c, 'NOT_SORTED_UNIQUE', 'payload.signatures[1]');
      const d = milestoneBlock();
      ms(d).signatures[1]!.publicKey = ms(d).signatures[0]!.publicKey;
      rejects(d, 'DUPLICATE', 'payload.signatures[1].publicKey');
      const e = milestoneBlock();
      ms(e).signatures = Array.from({ length: 256 }, (_, i) => ({
        type: 0 as const,
        publicKey: fill(32, 0),
        signature: fill(64, i % 256),
      }));
      rejects(e, 'COUNT_OUT_OF_RANGE', 'payload.signatures');
    });
  });
});
