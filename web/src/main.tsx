// The console's entry: the theme, the key and session state, and the app.
import '@mantine/core/styles.css';
import './global.css';
import { MantineProvider } from '@mantine/core';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { cssVariables, theme } from './theme';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariables} defaultColorScheme="light">
      <App />
    </MantineProvider>
  </StrictMode>,
);
