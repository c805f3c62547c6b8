// Macros: code (`python`) macros and block macros, owned by one user. Deleting a macro
// removes its profiles and its code snapshots; devices that followed it are left
// with no macro; run history keeps its name.
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { DialectName } from '../../db/database.js';
import type { Database, MacrosTable } from '../../db/schema.js';
import type { MacroKind } from '../../core/values.js';
import { containsInsensitive, textSortKey } from '../../db/text.js';
import { type FieldError, NotFoundError, ValidationError } from '../../core/errors.js';
import type { ServiceContext } from '../../core/context.js';
import { offsetOf, pageOf, pageRequest } from '../../core/paging.js';
import type { IdInput } from '../../core/schema.js';
import { type Clock, toIso } from '../../lib/clock.js';
import { compact } from '../../lib/compact.js';
import type { CreateMacroInput, MacroListInput, UpdateMacroInput } from './schemas.js';

type MacroRow = Selectable<MacrosTable>;

/**
 * The block-program rules (decisions.md §11), given by the wiring: they live in the runs
 * module, which executes programs, and macros must not import it (runs reads run history,
 * which reads macros).
 */
export interface BlockProgramRules {
  /** Every problem of `value` as a program, with `body.blocks…` paths; empty when it is one. */
  validate(value: unknown): FieldError[];
  /** The program as stored: `[]` reads as `{"version": 1, "steps": []}`. */
  normalize(value: unknown): unknown;
}

/** A stored program; `[]` (records from before programs were checked) reads as the empty program (decisions.md §11). */
function readBlocks(text: string): unknown {
  const value = JSON.parse(text) as unknown;
  return Array.isArray(value) && value.length === 0 ? { version: 1, steps: [] } : value;
}

export function presentMacro(row: MacroRow) {
  return compact({
    id: row.id,
    name: row.name,
    kind: row.kind,
    description: row.description,
    blocks: row.blocks === null ? null : readBlocks(row.blocks),
    installed_from: row.installed_listing_id === null ? null : { listing_id: row.installed_listing_id, version: row.installed_version ?? 1 },
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  });
}

/** The caller's macro, or 404 (someone else's macro is simply not found). */
export async function findOwnedMacro(db: Kysely<Database>, userId: number, macroId: number): Promise<MacroRow> {
  const row = await db.selectFrom('macros').selectAll().where('id', '=', macroId).where('user_id', '=', userId).executeTakeFirst();
  if (!row) throw new NotFoundError('No macro with this id.');
  return row;
}

/** The kind of the caller's macro, or null when it is not theirs (or not there): for modules that only ask which kind a macro is. */
export async function ownedMacroKind(db: Kysely<Database>, userId: number, macroId: number): Promise<MacroKind | null> {
  const row = await db.selectFrom('macros').select('kind').where('id', '=', macroId).where('user_id', '=', userId).executeTakeFirst();
  return row?.kind ?? null;
}

/** Every macro installed from the listing, by owner and id: the copies whose runs the marketplace's trust figures count. */
export async function installedCopiesOf(db: Kysely<Database>, listingId: number): Promise<{ userId: number; macroId: number }[]> {
  const rows = await db.selectFrom('macros').select(['user_id', 'id']).where('installed_listing_id', '=', listingId).execute();
  return rows.map((row) => ({ userId: row.user_id, macroId: row.id }));
}

/** What deleting a macro must also remove outside this module's tables (its code, with the zips nothing else names). */
export type RemoveMacroCode = (trx: Transaction<Database>, macroId: number) => Promise<void>;

export interface InstalledCopy {
  userId: number;
  name: string;
  kind: MacroKind;
  description: string | null;
  /** The program as stored (block copies), already checked when it was published. */
  blocks: string | null;
  listingId: number;
  version: number;
  now: number;
}

/** A macro installed from the marketplace, in the installer's transaction (the marketplace module writes it through here). */
export async function insertInstalledMacro(trx: Transaction<Database>, copy: InstalledCopy) {
  return trx
    .insertInto('macros')
    .values({
      user_id: copy.userId,
      name: copy.name,
      kind: copy.kind,
      description: copy.description,
      blocks: copy.blocks,
      installed_listing_id: copy.listingId,
      installed_version: copy.version,
      created_at: copy.now,
      updated_at: copy.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Moves an installed copy to another version of its listing (the owner's choice); a block copy takes that version's program. */
export async function setInstalledVersion(trx: Transaction<Database>, userId: number, macroId: number, version: number, blocks: string | null, now: number) {
  return trx
    .updateTable('macros')
    .set({ installed_version: version, ...(blocks !== null ? { blocks } : {}), updated_at: now })
    .where('id', '=', macroId)
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export class MacroService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
    private readonly clock: Clock,
    private readonly blocks: BlockProgramRules,
    private readonly removeCode: RemoveMacroCode = async () => undefined,
  ) {}

  /** The program to store; 422 with every problem of it otherwise. */
  private checkedBlocks(value: unknown): string {
    const problems = this.blocks.validate(value);
    if (problems.length > 0) throw new ValidationError(problems);
    return JSON.stringify(this.blocks.normalize(value));
  }

  async create(ctx: ServiceContext, input: CreateMacroInput) {
    if (input.kind === 'python' && input.blocks !== undefined) {
      throw new ValidationError([{ path: 'body.blocks', message: 'is only for block macros' }]);
    }
    const now = this.clock.now();
    const row = await this.db
      .insertInto('macros')
      .values({
        user_id: ctx.userId,
        name: input.name.trim(),
        kind: input.kind,
        description: input.description ?? null,
        blocks: input.kind === 'block' ? this.checkedBlocks(input.blocks ?? []) : null,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return presentMacro(row);
  }

  async list(ctx: ServiceContext, input: MacroListInput) {
    const page = pageRequest(input);
    let query = this.db.selectFrom('macros').where('user_id', '=', ctx.userId);
    if (input.name) query = query.where(containsInsensitive('name', input.name));
    const [{ total }, rows] = await Promise.all([
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
      query.selectAll().orderBy(textSortKey('name', this.dialect)).orderBy('id').limit(page.pageSize).offset(offsetOf(page)).execute(),
    ]);
    return pageOf(page, Number(total), rows.map(presentMacro));
  }

  async get(ctx: ServiceContext, { id }: IdInput) {
    return presentMacro(await findOwnedMacro(this.db, ctx.userId, id));
  }

  async update(ctx: ServiceContext, { id: macroId, ...input }: IdInput & UpdateMacroInput) {
    const { userId } = ctx;
    const macro = await findOwnedMacro(this.db, userId, macroId);
    if (input.blocks !== undefined && macro.kind !== 'block') {
      throw new ValidationError([{ path: 'body.blocks', message: 'is only for block macros' }]);
    }
    const row = await this.db
      .updateTable('macros')
      .set({
        ...(input.name !== undefined ? { name: input.name.trim() } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.blocks !== undefined ? { blocks: this.checkedBlocks(input.blocks) } : {}),
        updated_at: this.clock.now(),
      })
      .where('id', '=', macroId)
      .where('user_id', '=', userId)
      .returningAll()
      .executeTakeFirstOrThrow();
    return presentMacro(row);
  }

  async remove(ctx: ServiceContext, { id: macroId }: IdInput): Promise<void> {
    const { userId } = ctx;
    await findOwnedMacro(this.db, userId, macroId);
    // Its code goes first, with the zips nothing else names (marketplace versions may still);
    // profiles go with the macro (ON DELETE CASCADE); devices lose macro and profile
    // (ON DELETE SET NULL); run history has no foreign key and keeps the name.
    await this.db.transaction().execute(async (trx) => {
      await this.removeCode(trx, macroId);
      await trx.deleteFrom('macros').where('id', '=', macroId).where('user_id', '=', userId).execute();
    });
  }
}
