/**
 * The time of each test file, slowest first, as a Markdown table (for docs/benchmarks.md), from a
 * vitest JSON report:
 *
 *   npx vitest run --reporter=default --reporter=json --outputFile=test-report.json
 *   npx tsx scripts/test-times.ts test-report.json [--top 30]
 */
import { readFileSync } from "node:fs";
import { z } from "zod";

const Report = z.object({
  numTotalTests: z.number(),
  numFailedTests: z.number(),
  startTime: z.number(),
  testResults: z.array(
    z.object({
      name: z.string(),
      startTime: z.number(),
      endTime: z.number(),
      assertionResults: z.array(z.object({ status: z.string() })),
    }),
  ),
});

const [path, ...rest] = process.argv.slice(2);
if (!path) {
  console.error("usage: tsx scripts/test-times.ts REPORT.json [--top N]");
  process.exit(2);
}
const topAt = rest.indexOf("--top");
const top = topAt >= 0 ? Number(rest[topAt + 1]) : Number.POSITIVE_INFINITY;
const report = Report.parse(JSON.parse(readFileSync(path, "utf8")));
const files = report.testResults
  .map((file) => ({
    name: file.name.slice(file.name.indexOf("/test/") + 1),
    seconds: (file.endTime - file.startTime) / 1000,
    tests: file.assertionResults.length,
  }))
  .sort((a, b) => b.seconds - a.seconds);
const sum = files.reduce((total, file) => total + file.seconds, 0);
const wall = (Math.max(...report.testResults.map((file) => file.endTime)) - report.startTime) / 1000;
console.log(
  `${report.numTotalTests} tests in ${files.length} files, ${report.numFailedTests} failed; ` +
    `the files' own times add up to ${sum.toFixed(0)} s, vitest took ${wall.toFixed(0)} s from start to end.\n`,
);
console.log("| file | tests | s |");
console.log("| --- | ---: | ---: |");
for (const file of files.slice(0, top))
  console.log(`| ${file.name} | ${file.tests} | ${file.seconds.toFixed(1)} |`);
