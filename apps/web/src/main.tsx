import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './i18n/i18n';
import { App } from './app/app';
import { reloadOnStaleChunk } from './app/reload-on-stale-chunk';
import './index.css';

reloadOnStaleChunk();

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
