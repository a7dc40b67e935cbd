// Lets the conformance suite (which imports fs.globSync, new in Node 22)
// run on Node 20: `node --import ./node20.mjs node_modules/.bin/conformance …`.
// The suite uses globSync only in its tier-check command, which we never
// run; on Node 22 and later this file does nothing.
import fs from 'node:fs';
import { register } from 'node:module';

if (typeof fs.globSync !== 'function') {
  const shim = 'data:text/javascript,' + encodeURIComponent(
    "export * from 'node:fs';\n" +
    "export { default } from 'node:fs';\n" +
    "export function globSync() { throw new Error('fs.globSync needs Node 22'); }\n");
  const hooks = 'data:text/javascript,' + encodeURIComponent(
    `export async function resolve(specifier, context, next) {
       if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL &&
           context.parentURL.includes('/@modelcontextprotocol/conformance/')) {
         return { url: ${JSON.stringify(shim)}, shortCircuit: true };
       }
       return next(specifier, context);
     }`);
  register(hooks);
}
