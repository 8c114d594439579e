import { PGlite } from "@electric-sql/pglite";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
let t = performance.now();
const a = new PGlite("memory://", { postgresqlconf: ["shared_buffers=16MB"], extensions: { unaccent } });
await a.query("select 1");
console.log("init", Math.round(performance.now() - t));
t = performance.now();
const dump = await a.dumpDataDir("none");
console.log("dump", Math.round(performance.now() - t), dump.size);
for (let i = 0; i < 2; i++) {
t = performance.now();
const b = new PGlite("memory://", { postgresqlconf: ["shared_buffers=16MB"], extensions: { unaccent }, loadDataDir: dump });
await b.query("select 1");
console.log("load", Math.round(performance.now() - t));
}
