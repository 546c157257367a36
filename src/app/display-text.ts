// The path printer for the edges (cli, mcp reach core only through app): see core/display-path.ts.
export { displayLine, displayPath } from '../core/display-path.js';
