import type { StorybookConfig } from '@storybook/react-vite';
import type { PluginOption } from 'vite';

/** Plugins of the root vite.config.ts that only make sense for the library build. */
const LIBRARY_ONLY_PLUGINS = new Set(['docs-assistant:css-only-entry']);

const pluginName = (plugin: PluginOption): string | undefined =>
  plugin && typeof plugin === 'object' && 'name' in plugin ? plugin.name : undefined;

/** Storybook's prop tables come from react-docgen, which reads every source file the stories reach. */
const DOCGEN_PLUGIN = 'storybook:react-docgen-plugin';

/**
 * react-docgen only for the widget's own files: the reference-service story reaches the service's
 * code, which has no components, and react-docgen overflowed its stack on one of its scanners
 * (`docs/mdx-scan.ts`), failing the whole build. Storybook offers no exclude for it, so its
 * `transform` is wrapped.
 */
function docgenForWidgetOnly(plugin: PluginOption): PluginOption {
  if (pluginName(plugin) !== DOCGEN_PLUGIN) return plugin;
  const { transform } = plugin as { transform?: (...args: unknown[]) => unknown };
  if (typeof transform !== 'function') return plugin;
  return {
    ...(plugin as object),
    transform(this: unknown, code: unknown, id: unknown, ...rest: unknown[]) {
      if (typeof id === 'string' && id.includes('/packages/docs-assistant-server/')) return undefined;
      return transform.call(this, code, id, ...rest);
    },
  } as PluginOption;
}

const config: StorybookConfig = {
  stories: ['../stories/**/*.stories.@(ts|tsx)'],
  addons: ['@storybook/addon-docs', '@storybook/addon-a11y'],
  framework: { name: '@storybook/react-vite', options: {} },
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  // The root vite.config.ts builds the LIBRARY (lib entries, externals, chunk groups, the CSS-only
  // entry). Storybook takes its React plugin but builds an app. Builder-vite already ignores the
  // user's `build` (bar `target`); `lib` is dropped here too, so that stays true whatever the builder
  // does. The bundler options left are Storybook's own (its font externals): they must stay.
  async viteFinal(viteConfig) {
    const { lib: _lib, ...build } = viteConfig.build ?? {};
    return {
      ...viteConfig,
      // Storybook's own manager and preview chunks pass 1 MB; the warning says nothing about ours.
      build: { ...build, chunkSizeWarningLimit: 1600 },
      plugins: (viteConfig.plugins ?? [])
        .flat()
        .filter((plugin) => {
          const name = pluginName(plugin as PluginOption);
          return !name || !LIBRARY_ONLY_PLUGINS.has(name);
        })
        .map((plugin) => docgenForWidgetOnly(plugin as PluginOption)),
    };
  },
};

export default config;
