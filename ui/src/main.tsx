// Entry point of the webview: styles and bundled fonts (no network), then the App. In the `e2e`
// build mode a scripted fake backend is installed first (it is not part of other builds).
import '@fontsource/inter/latin-400.css';
import '@fontsource/inter/latin-500.css';
import '@fontsource/inter/latin-600.css';
import '@fontsource/jetbrains-mono/latin-400.css';
import './styles/index.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './components/app/App';
import { guardContextMenu } from './contextMenu';

async function start(): Promise<void> {
  if (import.meta.env.MODE === 'e2e') {
    const { installFakeBackend } = await import('./mock/fakeBackend');
    installFakeBackend();
  }
  guardContextMenu();
  const root = document.getElementById('root');
  if (!root) throw new Error('#root is missing from index.html');
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

void start();
