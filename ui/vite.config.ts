// Build, dev-server and unit-test configuration of the Tandem webview.
// The bundle is loaded by WebKitGTK 2.50 from the app's assets, so it is relative (`base: './'`),
// targets Safari 16-level JavaScript, and never needs the network.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  base: './',
  plugins: [react()],
  clearScreen: false,
  server: {
    port: 1420,
    strictPort: true,
  },
  build: {
    target: 'safari16',
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    // Waits are on conditions (see src/test/setup.ts); the test deadline leaves room for a busy machine.
    testTimeout: 30_000,
  },
});
