// Response serializers made when a route first answers with that status, not at start-up: Fastify
// builds one fast-json-stringify function per route and status on ready, which took about 0.3 s
// of every start (issue 34 point 4). The functions are the ones Fastify would build.
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { serializerOnFirstUse } from '../lib/on-first-use.js';

type BuildSerializer = ReturnType<typeof SerializerSelector>;

export const buildSerializerOnFirstUse: BuildSerializer = (externalSchemas, serializerOpts) => {
  const compile = SerializerSelector()(externalSchemas, serializerOpts);
  return (route) => serializerOnFirstUse(() => compile(route));
};
