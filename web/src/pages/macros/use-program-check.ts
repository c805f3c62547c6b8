// A block program checked against the schema the service publishes
// (GET /schemas/block-program.json), fetched once per page load. Until the schema has
// arrived, or if it cannot be read, only the JSON syntax is checked here and the service
// checks the rest when the program is saved.
import { useEffect, useMemo, useState } from 'react';
import { checkAgainstSchema, type Schema, type SchemaError } from '../../lib/schema-check';
import type { Parsed } from './program';
import { blockProgramSchema } from './macros-api';

let schemaLoad: Promise<Schema> | null = null;

function loadSchema(): Promise<Schema> {
  schemaLoad ??= blockProgramSchema();
  schemaLoad.catch(() => {
    schemaLoad = null;
  });
  return schemaLoad;
}

export interface ProgramCheck {
  /** What the published schema finds wrong (empty when it is right, or not loaded). */
  errors: SchemaError[];
  /** The schema could not be read; the service's answer on save is all there is. */
  unavailable: boolean;
}

export function useProgramCheck(parsed: Parsed): ProgramCheck {
  const [schema, setSchema] = useState<Schema | null>(null);
  const [unavailable, setUnavailable] = useState(false);
  useEffect(() => {
    let current = true;
    loadSchema().then(
      (s) => current && setSchema(s),
      () => current && setUnavailable(true),
    );
    return () => {
      current = false;
    };
  }, []);
  const errors = useMemo(() => {
    // [] is the empty program, accepted on create and update (it cannot be run).
    if (!schema || !parsed.ok || (Array.isArray(parsed.value) && parsed.value.length === 0)) return [];
    return checkAgainstSchema(schema, parsed.value, 'blocks');
  }, [schema, parsed]);
  return { errors, unavailable };
}
