// Mocha's spec reporter, followed by the plain closing line CI reads: "<label>: N passed, N failed".
'use strict';
const Mocha = require('mocha');
const { Spec } = Mocha.reporters;
const { EVENT_RUN_END } = Mocha.Runner.constants;

class CountingReporter extends Spec {
  constructor(runner, options) {
    super(runner, options);
    const label = typeof Deno !== 'undefined' ? 'deno' : 'node';
    runner.once(EVENT_RUN_END, () => {
      const s = runner.stats;
      console.log(`${label}: ${s.passes} passed, ${s.failures} failed, ${s.pending} skipped`);
    });
  }
}
module.exports = CountingReporter;
