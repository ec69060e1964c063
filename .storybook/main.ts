import type { StorybookConfig } from '@storybook/react-vite';
import type { PluginOption } from 'vite';

/** Plugins of the root vite.config.ts that only make sense for the library build. */
const LIBRARY_ONLY_PLUGINS = new Set(['docs-assistant:css-only-entry']);

const pluginName = (plugin: PluginOption): string | undefined =>
  plugin && typeof plugin === 'object' && 'name' in plugin ? plugin.name : undefined;

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
      plugins: (viteConfig.plugins ?? []).flat().filter((plugin) => {
        const name = pluginName(plugin as PluginOption);
        return !name || !LIBRARY_ONLY_PLUGINS.has(name);
      }),
    };
  },
};

export default config;
