import { defineConfig } from 'vitest/config';

// The build lands where Maven packs the bundle's resources (see ../pom.xml): the bundle serves
// it under /rst/ on the RESTCONF port, so every URL in it is relative ('./').
export default defineConfig({
  base: './',
  build: {
    outDir: '../target/generated-resources/frontend/rst-ui',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 1024,
    sourcemap: false,
  },
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
  },
});
