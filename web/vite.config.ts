import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';

const server = 'http://localhost:5000';
// The API server owns these paths; in development Vite forwards them so cookies stay same-origin.
const proxied = ['/api', '/dev', '/uploads', '/healthz'];

const proxy = Object.fromEntries(proxied.map((path) => [path, { target: server }]));

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: { outDir: 'dist', emptyOutDir: true },
  server: { proxy },
  preview: { proxy },
});
