// Short names for the generated schema types the pages use.
import type { components, paths } from './schema';

type Schemas = components['schemas'];
export type User = Schemas['User'];
export type Subscription = Schemas['Subscription'];
export type ApiKey = Schemas['ApiKey'];
export type Macro = Schemas['Macro'];
export type Device = Schemas['Device'];
export type DeviceGroup = Schemas['DeviceGroup'];
export type Run = Schemas['Run'];
export type Profile = Schemas['MacroSettingProfile'];
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type Proxy = Schemas['Proxy'];
export type ProxyAssignment = Schemas['ProxyAssignment'];
export type CodeSnapshotWarning = Schemas['CodeSnapshotWarning'];
export type Schedule = Schemas['Schedule'];
export type ScheduleOccurrence = Schemas['ScheduleOccurrence'];

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
export type ResponseOf<P extends keyof paths, M extends keyof paths[P], S extends number = 200> = paths[P][M] extends {
  responses: infer R;
}
  ? S extends keyof R
    ? Json<R[S]>
    : never
  : never;

/** The query parameters of a route, as the data files take them. */
export type QueryOf<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
/** The JSON body of a route. */
export type BodyOf<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { requestBody?: infer B }
  ? NonNullable<B> extends { content: { 'application/json': infer J } }
    ? J
    : never
  : never;

export type Scope = ApiKey['scopes'][number];
export type ExpiresIn = NonNullable<paths['/api/api-keys']['post']['requestBody']>['content']['application/json']['expires_in'];
export type WhoAmI = ResponseOf<'/api/whoami', 'get'>;
export type CodeState = ResponseOf<'/api/macros/{id}/code-state', 'get'>;
export type CodeUpload = ResponseOf<'/api/macros/{id}/code-snapshot', 'post'>;
export type DeliveryDetail = ResponseOf<'/api/webhooks/deliveries/{id}', 'get'>;
export type ProxyUsage = ResponseOf<'/api/proxy/usage', 'get'>;
export type ConnectionInfo = ResponseOf<'/api/proxy/assignments/{id}/connection-info', 'get'>;
export type ImportResult = ResponseOf<'/api/proxy/import', 'post'>;
export type RunLog = ResponseOf<'/api/executions/{execution_id}/logs', 'get'>;

/** The paged-list shape of service-api.md. */
export type { Paged } from '../lib/paging';
