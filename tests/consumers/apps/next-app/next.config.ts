import type { NextConfig } from 'next';

const config: NextConfig = {
  // The consumer test builds in a temporary folder outside any workspace: keep Next from walking up
  // to a lockfile it does not own.
  outputFileTracingRoot: import.meta.dirname,
  turbopack: { root: import.meta.dirname },
};

export default config;
