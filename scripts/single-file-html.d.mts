// The types of single-file-html.mjs, for the TypeScript of the tests.
export function bundleScript(entry: string): Promise<string>;
export function singleFileHtml(template: string): Promise<string>;
export function buildViews(from: string, to: string): Promise<void>;
