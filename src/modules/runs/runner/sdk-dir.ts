// Where the Python SDK `svc_device` is shipped: `python/` at the project's root. Every run
// has it as PYTHONPATH.
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../../lib/package-root.js';

export const SDK_DIR = join(PACKAGE_ROOT, 'python');
