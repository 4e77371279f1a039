#!/usr/bin/env node
// Committed so that npm can link the bin before the package is built; the CLI itself is dist/cli.js.
import '../dist/cli.js';
