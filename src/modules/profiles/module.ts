// Builds the profiles module: settings profiles of code macros.
import type { BuiltModule, ModuleDeps } from '../../http/module.js';
import { profileRoutes } from './routes.js';
import { ProfileService, type RepointDevices } from './service.js';

export interface ProfilesServices {
  profiles: ProfileService;
}

export interface ProfilesModuleDeps extends ModuleDeps {
  repointDevices: RepointDevices;
}

export function buildProfilesModule(deps: ProfilesModuleDeps): BuiltModule<ProfilesServices> {
  const profiles = new ProfileService(deps.db.kysely, deps.db.dialect, deps.clock, deps.repointDevices);
  return { routes: profileRoutes(profiles), services: { profiles } };
}
