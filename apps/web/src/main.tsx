import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { recordComponentTrace } from './lib/component-trace';
import './styles/index.css';

createRoot(document.getElementById('root')!, {
  // The crash screen shows the component trace of the error it caught (spec §2).
  onCaughtError: (error, info) => {
    recordComponentTrace(error, info);
    console.error(error);
  },
}).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
