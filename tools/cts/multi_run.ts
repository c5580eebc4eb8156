/* eslint-disable no-console, n/no-restricted-import */
// The CTS's command-line runner (src/common/runtime/cmdline.ts at 3314e410)
// for many queries in one process, so that the framework and the test files
// are transpiled once, not once per query.  tools/cts/run.mjs copies this
// file into the CTS checkout as src/common/runtime/stex_multi_run.ts and runs
// it through src/common/tools/setup-ts-in-node.js.
//
//   --queries FILE   one query per line; QUERY<TAB>CASE runs the cases of
//                    QUERY after CASE (where a run crashed in CASE)
//   --out FILE       JSON lines, appended synchronously (a crash keeps them):
//                    {"query":Q}                 a query starts
//                    {"begin":CASE}              a case starts
//                    {"case":CASE,"status":S,"logs":[...]}  it ended
//                    {"listed":CASE}             --list: a case of the query
//                    {"done":Q}                  the query ended
//   --list, --gpu-provider M, --gpu-provider-flag k=v, --expectations FILE,
//   --subcases-between-attempting-gc N: as cmdline.ts.
import * as fs from 'fs';

import { dataCache } from '../framework/data_cache.js';
import { getResourcePath } from '../framework/resources.js';
import { globalTestConfig } from '../framework/test_config.js';
import { DefaultTestFileLoader } from '../internal/file_loader.js';
import { Logger } from '../internal/logging/logger.js';
import { parseQuery } from '../internal/query/parseQuery.js';
import { parseExpectationsForTestQuery } from '../internal/query/query.js';
import { Colors } from '../util/colors.js';
import { setGPUProvider } from '../util/navigator_gpu.js';

Colors.enabled = false;

const args = process.argv.slice(2);
let queriesFile = '';
let outFile = '';
let list = false;
let expectationsFile: string | undefined;
let providerPath: string | undefined;
const flags: string[] = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--queries') queriesFile = args[++i];
  else if (a === '--out') outFile = args[++i];
  else if (a === '--list') list = true;
  else if (a === '--expectations') expectationsFile = args[++i];
  else if (a === '--gpu-provider') providerPath = args[++i];
  else if (a === '--gpu-provider-flag') flags.push(args[++i]);
  else if (a === '--subcases-between-attempting-gc')
    globalTestConfig.subcasesBetweenAttemptingGC = Number(args[++i]);
  else throw new Error(`unknown option ${a}`);
}

const emit = (o: unknown) => fs.appendFileSync(outFile, JSON.stringify(o) + '\n');

if (providerPath) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const m = require(providerPath);
  setGPUProvider(() => m.create(flags));
}

dataCache.setStore({
  load: (path: string) =>
    new Promise<Uint8Array>((resolve, reject) => {
      fs.readFile(getResourcePath(`cache/${path}`), (err, data) => {
        if (err !== null) reject(err.message);
        else resolve(data);
      });
    }),
});

(async () => {
  const queries = fs
    .readFileSync(queriesFile, 'utf8')
    .split('\n')
    .filter(l => l.trim() !== '');
  const rawExpectations = expectationsFile
    ? // eslint-disable-next-line @typescript-eslint/no-require-imports
      require(expectationsFile).expectations
    : [];
  for (const line of queries) {
    const [q, after] = line.split('\t');
    let skipping = !!after;
    emit({ query: q });
    const loader = new DefaultTestFileLoader();
    const filterQuery = parseQuery(q);
    const testcases = await loader.loadCases(filterQuery);
    const expectations = parseExpectationsForTestQuery(rawExpectations, filterQuery);
    const log = new Logger();
    for (const testcase of testcases) {
      const name = testcase.query.toString();
      if (skipping) {
        if (name === after) skipping = false;
        continue;
      }
      if (list) {
        emit({ listed: name });
        continue;
      }
      emit({ begin: name });
      const [rec, res] = log.record(name);
      await testcase.run(rec, expectations);
      emit({
        case: name,
        status: res.status,
        ms: res.timems,
        logs: (res.logs ?? []).map(l => l.toJSON()),
      });
    }
    emit({ done: q });
  }
  process.exit(0);
})().catch(ex => {
  emit({ error: String(ex.stack ?? ex) });
  process.exit(1);
});
