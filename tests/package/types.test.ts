/**
 * The published types: the declarations are built as `npm run build` builds them, laid out as an
 * installed package (its `package.json`, so `exports` applies), and a consumer's TypeScript file
 * that imports every entry point is type-checked against them. A `types` path that points nowhere
 * (as once happened: the declarations moved and `package.json` still named the old folder) leaves
 * every import typed `any`, which the `@ts-expect-error` lines below catch.
 */
import { execFile } from 'node:child_process';
import { access, copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

interface PackageJson {
  types: string;
  exports: Record<string, string | { types?: string; import?: string }>;
}

let project: string;
let pkg: PackageJson;

beforeAll(async () => {
  // Inside the repository, so the consumer resolves react, ai and the rest from its node_modules.
  await mkdir(join(ROOT, 'tests/.artifacts'), { recursive: true });
  project = await mkdtemp(join(ROOT, 'tests/.artifacts/types-consumer-'));
  const installed = join(project, 'node_modules/docs-assistant');
  await mkdir(installed, { recursive: true });
  await copyFile(join(ROOT, 'package.json'), join(installed, 'package.json'));
  pkg = (await import(join(ROOT, 'package.json'), { with: { type: 'json' } })).default as PackageJson;
  await run(process.execPath, [TSC, '-p', 'tsconfig.build.json', '--outDir', join(installed, 'dist/types')], {
    cwd: ROOT,
  });
}, 120_000);

afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true });
});

describe('published types', () => {
  it('has a declaration file at every types path package.json names', async () => {
    const paths = [
      pkg.types,
      ...Object.values(pkg.exports).flatMap((entry) =>
        typeof entry === 'object' && entry.types ? [entry.types] : [],
      ),
    ];
    expect(paths.length).toBeGreaterThanOrEqual(5);
    for (const path of paths) {
      await expect(access(join(project, 'node_modules/docs-assistant', path))).resolves.toBeUndefined();
    }
  });

  it("type-checks a consumer that imports every entry through the package's exports", async () => {
    await writeFile(
      join(project, 'app.tsx'),
      `import { DocsAssistant, useDocsAssistant, type DocsAssistantProps, type TextPartProps } from 'docs-assistant';
import { DocsAssistant as Widget, type DocsAssistantHandle, defaultLabels } from 'docs-assistant/widget';
import { createStaticExportClient } from 'docs-assistant/static-export';
import { StaticExportPanel } from 'docs-assistant/static-export/react';

export const props: DocsAssistantProps = { domain: 'acme', apiKey: 'svc_dsc_x', baseUrl: 'https://api.example.com' };
export const same: typeof DocsAssistant = Widget;
export const launcher: string = defaultLabels.launcher;
export type Handle = DocsAssistantHandle;
export type Hook = typeof useDocsAssistant;
export type Text = TextPartProps['part']['text'];
export const client = createStaticExportClient;
export const panel = StaticExportPanel;

// Wrong types are errors, so none of the imports above is typed \`any\`.
// @ts-expect-error domain is a string
export const badProps: DocsAssistantProps = { domain: 1, apiKey: 'svc_dsc_x', baseUrl: 'https://x' };
// @ts-expect-error the widget entry's labels are typed
export const badLabel: number = defaultLabels.launcher;
// @ts-expect-error the client takes an options object
createStaticExportClient(42);
`,
    );
    await writeFile(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          lib: ['ES2023', 'DOM'],
          module: 'ESNext',
          moduleResolution: 'Bundler',
          jsx: 'react-jsx',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: [],
        },
        files: ['app.tsx'],
      }),
    );
    const result = await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: project }).then(
      () => ({ ok: true, output: '' }),
      (error: { stdout?: string; stderr?: string }) => ({
        ok: false,
        output: `${error.stdout}${error.stderr}`,
      }),
    );
    expect(result.output).toBe('');
    expect(result.ok).toBe(true);
  }, 120_000);
});
