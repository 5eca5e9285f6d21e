// Validates a glTF / GLB file with the Khronos glTF validator (npm `gltf-validator`, installed
// into tests/node_modules by `npm ci --prefix tests`). Prints a summary and every issue;
// exits 1 on any error, 2 when the validator is missing or the file cannot be read.
// Usage: node tests/gltf_validate.mjs FILE.glb
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const file = process.argv[2];
if (!file) {
  console.error("usage: node tests/gltf_validate.mjs FILE.glb");
  process.exit(2);
}
let validator;
try {
  validator = createRequire(import.meta.url)("gltf-validator");
} catch (e) {
  console.error(`gltf-validator is not installed (npm ci --prefix tests): ${e.message}`);
  process.exit(2);
}
let bytes;
try {
  bytes = new Uint8Array(readFileSync(file));
} catch (e) {
  console.error(`cannot read ${file}: ${e.message}`);
  process.exit(2);
}
const report = await validator.validateBytes(bytes, { uri: file, maxIssues: 0 });
const issues = report.issues;
console.log(
  `${file}: glTF validator ${report.validatorVersion}: ${issues.numErrors} errors, ` +
    `${issues.numWarnings} warnings, ${issues.numInfos} infos, ${issues.numHints} hints`,
);
const info = report.info || {};
console.log(
  `  ${info.drawCallCount ?? "?"} draw calls, ${info.totalVertexCount ?? "?"} vertices, ` +
    `${info.totalTriangleCount ?? "?"} triangles, ${info.animationCount ?? "?"} animations`,
);
const severity = ["error", "warning", "info", "hint"];
for (const m of issues.messages) {
  console.log(`  ${severity[m.severity] ?? m.severity} ${m.code} at ${m.pointer ?? m.offset ?? ""}: ${m.message}`);
}
process.exit(issues.numErrors > 0 ? 1 : 0);
