// Where the Python SDK `svc_device` is shipped: `python/` at the project's root (the same
// four levels up from src/modules/runs/runner and from dist/modules/runs/runner). Every run
// has it as PYTHONPATH.
import { fileURLToPath } from 'node:url';

export const SDK_DIR = fileURLToPath(new URL('../../../../python', import.meta.url));
