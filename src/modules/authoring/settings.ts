// The authoring settings as the module sees them: AUTHOR_* from the one configuration.
import type { Config } from '../../config.js';

export type AuthoringSettings = Config['authoring'];
