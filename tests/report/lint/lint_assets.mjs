// Lints the report page's assets (tests/report/assets_lint_test.sh): the script as the page
// runs it, its files joined in the order of page_assets.h's kPageScripts, each after a
// newline (html_report.cc), with ESLint; each style sheet with stylelint. Every finding is
// printed as FILE:LINE:COLUMN: message (rule), with the line in that file, and any makes the
// exit status 1.
//   node lint_assets.mjs ASSETS_DIR PAGE_ASSETS_H
import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {ESLint} from 'eslint';
import stylelint from 'stylelint';

const here = path.dirname(fileURLToPath(import.meta.url));
const [assetsDir, header] = process.argv.slice(2).map((p) => path.resolve(p));
if (!assetsDir || !header) {
  console.error('usage: node lint_assets.mjs ASSETS_DIR PAGE_ASSETS_H');
  process.exit(2);
}

const order = /kPageScripts\[\]\s*=\s*\{([^}]*)\}/.exec(fs.readFileSync(header, 'utf8'));
if (!order) {
  console.error(`${header}: no kPageScripts[] = {...}: cannot tell the script's order`);
  process.exit(2);
}
const scripts = [...order[1].matchAll(/"([^"]+)"/g)].map((m) => m[1]);
const onDisk = fs.readdirSync(assetsDir).filter((f) => f.endsWith('.js')).sort();
if (JSON.stringify([...scripts].sort()) !== JSON.stringify(onDisk)) {
  console.error(`the page's scripts (${scripts.join(', ')}) are not the .js files of ` +
                `${assetsDir} (${onDisk.join(', ')})`);
  process.exit(1);
}

let findings = 0;
const say = (file, line, column, text) => {
  console.log(`${path.join(assetsDir, file)}:${line}:${column}: ${text}`);
  ++findings;
};

// The joined script, and the line of the joined text where each file's first line is.
let joined = '';
const starts = [];
for (const name of scripts) {
  joined += '\n';
  starts.push({name, line: joined.split('\n').length});
  joined += fs.readFileSync(path.join(assetsDir, name), 'utf8');
}
const where = (line) => {
  const file = starts.filter((s) => s.line <= line).pop() || starts[0];
  return [file.name, line - file.line + 1];
};
const eslint = new ESLint({cwd: assetsDir, overrideConfigFile: path.join(here, 'eslint.config.mjs')});
const [result] = await eslint.lintText(joined, {filePath: path.join(assetsDir, 'page-script.js')});
for (const m of result.messages) {
  const [file, line] = where(m.line || 1);
  // A message that points at another place names a line of the joined text: that file's.
  const message = m.message.replace(/line (\d+) column (\d+)/, (_, l, c) => {
    const [otherFile, otherLine] = where(Number(l));
    return `${otherFile}:${otherLine}:${c}`;
  });
  say(file, line, m.column || 1, `${message} (${m.ruleId || 'parse'})`);
}

const sheets = fs.readdirSync(assetsDir).filter((f) => f.endsWith('.css')).sort();
const styled = await stylelint.lint({
  files: sheets.map((f) => path.join(assetsDir, f)),
  config: {extends: ['stylelint-config-recommended']},
  configBasedir: here,
});
for (const r of styled.results) {
  for (const w of r.warnings) say(path.basename(r.source), w.line, w.column, w.text);
  for (const w of r.parseErrors || []) say(path.basename(r.source), w.line, w.column, w.text);
}

console.log(`report assets: ${scripts.length} scripts and ${sheets.length} style sheets, ` +
            `${findings} findings`);
process.exit(findings ? 1 : 0);
