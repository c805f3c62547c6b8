// Macros: code (`python`) macros and block macros, owned by one user. Deleting a macro
// removes its profiles and its code snapshots; devices that followed it are left
// with no macro; run history keeps its name.
import type { Kysely, Selectable } from 'kysely';
import type { DialectName } from '../../db/database.js';
import type { Database, MacrosTable } from '../../db/schema.js';
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

export class MacroService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
    private readonly clock: Clock,
    private readonly blocks: BlockProgramRules,
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
    // Profiles and code snapshots go with the macro (ON DELETE CASCADE); devices lose macro and profile
    // (ON DELETE SET NULL); run history has no foreign key and keeps the name.
    await this.db.deleteFrom('macros').where('id', '=', macroId).where('user_id', '=', userId).execute();
  }
}
