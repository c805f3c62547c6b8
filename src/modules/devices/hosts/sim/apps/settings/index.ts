// The system Settings app (a small part of it): its screens in order, assembled into the
// app description of decisions.md §9. One JSON file per screen.
import app from './app.json' with { type: 'json' };
import settingsHome from './settings_home.json' with { type: 'json' };
import aboutPhone from './about_phone.json' with { type: 'json' };

export const systemSettings: unknown = { ...app, screens: [settingsHome, aboutPhone] };
