// A phone lists package names, not labels (those live in each APK's resources). Labels read
// from the manifests of APKs installed through the service are kept here, by package and
// version, so the app list can show them; other apps show their package name.
import type { Db } from '../../../../db/database.js';
import type { Clock } from '../../../../lib/clock.js';
import type { ApkInfo } from '../types.js';

export class ApkLabels {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async remember(info: ApkInfo): Promise<void> {
    const now = this.clock.now();
    await this.db.kysely
      .insertInto('apk_labels')
      .values({ package: info.package, version_code: info.version_code, label: info.label, version_name: info.version_name, updated_at: now })
      .onConflict((oc) => oc.columns(['package', 'version_code']).doUpdateSet({ label: info.label, version_name: info.version_name, updated_at: now }))
      .execute();
  }

  /** Labels and version names by `package@version_code`. */
  async lookup(packages: string[]): Promise<Map<string, { label: string; version_name: string }>> {
    if (packages.length === 0) return new Map();
    const rows = await this.db.kysely.selectFrom('apk_labels').select(['package', 'version_code', 'label', 'version_name']).where('package', 'in', packages).execute();
    return new Map(rows.map((r) => [`${r.package}@${Number(r.version_code)}`, { label: r.label, version_name: r.version_name }]));
  }
}
