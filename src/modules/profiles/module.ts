// Builds the profiles module: settings profiles of code macros.
import type { BuiltModule, ModuleDeps } from '../../http/module.js';
import { profileRoutes } from './routes.js';
import { ProfileService } from './service.js';

export interface ProfilesServices {
  profiles: ProfileService;
}

export function buildProfilesModule(deps: ModuleDeps): BuiltModule<ProfilesServices> {
  const profiles = new ProfileService(deps.db.kysely, deps.db.dialect, deps.clock);
  return { routes: profileRoutes(profiles), services: { profiles } };
}
