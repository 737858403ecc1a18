/**
 * Page weight of the public pages under a running `npm start`, gzipped:
 *   node tests/bench/page-weight-report.ts [siteUrl]
 */
import { measurePage } from "./page-weight.ts";

const siteUrl = process.argv[2] ?? "http://localhost:8888";
const fetchText = async (path: string) => (await fetch(new URL(path, siteUrl))).text();
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

console.log("page        HTML      CSS       JS total  JS before interaction");
for (const path of ["/", "/blog", "/blog/1", "/downloads"]) {
  const w = await measurePage(fetchText, path);
  console.log(`${path.padEnd(11)} ${kb(w.html).padEnd(9)} ${kb(w.css).padEnd(9)} ${kb(w.jsTotal).padEnd(9)} ${kb(w.jsBeforeInteraction)}`);
}
