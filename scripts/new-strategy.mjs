#!/usr/bin/env node
// npm run new-strategy -- <name>: scaffolds packages/<name>, a strategy that passes the conformance suite, and a changeset.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const template = path.join(root, 'scripts', 'templates', 'strategy');
const reserved = new Set(['core', 'conformance', 'bench', 'benchmarks', 'cwdkit']);

function refuse(message) {
  process.stderr.write(
    `new-strategy: ${message}\nusage: npm run new-strategy -- <name>   (lowercase letters, digits and dashes, e.g. "ring-buffer")\n`,
  );
  process.exit(2);
}

const args = process.argv.slice(2);
if (args.length !== 1) refuse(`expected one name, got ${args.length}`);
const [name] = args;
if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name) || name.length > 40) {
  refuse(
    `"${name}" is not a valid strategy name: use 1–40 lowercase letters, digits and single dashes, starting with a letter`,
  );
}
if (reserved.has(name)) refuse(`"${name}" is reserved for a cwdkit package that is not a strategy`);
const target = path.join(root, 'packages', name);
if (fs.existsSync(target)) refuse(`packages/${name} already exists: pick another name, or edit that package`);

const changeset = path.join(root, '.changeset', `new-strategy-${name}.md`);
const written = [];
function copy(from, to) {
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    if (entry.isDirectory()) {
      copy(source, path.join(to, entry.name));
      continue;
    }
    const destination = source === path.join(template, 'changeset.md') ? changeset : path.join(to, entry.name);
    fs.mkdirSync(path.dirname(destination), { recursive: true });
    fs.writeFileSync(destination, fs.readFileSync(source, 'utf8').replaceAll('__NAME__', name));
    written.push(path.relative(root, destination));
  }
}
copy(template, target);
process.stdout.write(
  `Created @cwdkit/${name}:\n${written.map((file) => `  ${file}`).join('\n')}\n\nNext:\n` +
    `  npm install                                   # link the new workspace\n` +
    `  npx turbo run test --filter=@cwdkit/${name}   # the conformance suite, on Node, Bun and Deno\n` +
    `  CWDKIT_STRATEGY=${name} npx cwdkit which        # select it by the name its package.json declares\n` +
    `  npm run bench -- --strategy ${name},naive      # measure it\n`,
);
