import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';

const server = 'http://localhost:5000';
// The API server owns these paths; in development Vite forwards them so cookies stay same-origin.
const proxied = ['/api', '/dev', '/uploads', '/healthz'];
const proxy = Object.fromEntries(proxied.map((path) => [path, { target: server }]));

// Libraries change less often than the app: separate chunks stay cached across deploys.
const vendorChunks: Record<string, string> = {
  'react-dom': 'react',
  'react/': 'react',
  scheduler: 'react',
  'react-router': 'router',
  '@tanstack': 'query',
  '@radix-ui': 'radix',
  zod: 'zod',
  'libphonenumber-js': 'phone',
};

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rollupOptions: {
      output: {
        manualChunks(id) {
          const [, modulePath] = id.split('node_modules/');
          if (!modulePath) return undefined;
          const match = Object.keys(vendorChunks).find((prefix) => modulePath.startsWith(prefix));
          return match ? vendorChunks[match] : undefined;
        },
      },
      onwarn(warning, warn) {
        // zod ships comments Rollup cannot place; harmless and not ours to fix.
        if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('node_modules')) return;
        warn(warning);
      },
    },
  },
  server: { proxy },
  preview: { proxy },
});
