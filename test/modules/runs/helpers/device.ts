// A booted simulated cloud device of a test user, and the app listening on 127.0.0.1 so a
// run's svc_device reaches its device RPC over real HTTP.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../../../src/db/database.js';
import { SimHost } from '../../../../src/modules/devices/hosts/index.js';
import { createCloudDevice } from '../../../helpers/resources.js';
import type { SignedUpUser } from '../../../helpers/users.js';

export async function bootedCloudDevice(app: FastifyInstance, db: Db, user: SignedUpUser, name = 'Cloud phone') {
  const host = new SimHost({ db, bootMs: 0 });
  const device = await createCloudDevice(app, user, { name });
  await host.place(device.id);
  await host.boot(device.id);
  return { id: device.id as number, host, driver: await host.driver(device.id) };
}

/** Listens on 127.0.0.1 and an ephemeral port; answers the base URL. */
export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}
