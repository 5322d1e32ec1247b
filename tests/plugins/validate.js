// SPDX-License-Identifier: MIT
// Validates an Agent Plugin directory's plugin.json and mcp.json against the Agent Plugins
// 1.0.0 JSON Schemas (tests/plugins/schemas, from agent-plugins-spec) with ajv, Draft 2020-12.
// usage: node validate.js <node_modules dir> <schemas dir> <plugin dir>...
'use strict';
const path = require('path');
const fs = require('fs');
const [modules, schemas, ...plugins] = process.argv.slice(2);
const Ajv2020 = require(path.join(modules, 'ajv/dist/2020')).default;
const addFormats = require(path.join(modules, 'ajv-formats')).default;
const ajv = new Ajv2020({strict: true, allErrors: true});
addFormats(ajv);
const load = (f) => JSON.parse(fs.readFileSync(f, 'utf8'));
const check = {
  'plugin.json': ajv.compile(load(path.join(schemas, 'plugin.schema.json'))),
  'mcp.json': ajv.compile(load(path.join(schemas, 'mcp.schema.json'))),
};
let bad = 0;
for (const dir of plugins) {
  for (const [file, validate] of Object.entries(check)) {
    const f = path.join(dir, file);
    if (!fs.existsSync(f)) {
      if (file === 'plugin.json') { console.log(`FAIL: ${f} is missing`); bad++; }
      continue;
    }
    if (!validate(load(f))) {
      console.log(`FAIL: ${f}: ${ajv.errorsText(validate.errors)}`);
      bad++;
    } else {
      console.log(`valid: ${f}`);
    }
  }
}
process.exit(bad ? 1 : 0);
