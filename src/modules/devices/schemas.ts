import { type Static, Type } from 'typebox';
import { PageQuery, Paged, SortQuery } from '../../core/paging.js';
import { DateTime, Id, Nullable, StringEnum } from '../../core/schema.js';
import { GROUP_KINDS, HOSTED_STATES } from '../../core/values.js';

export const DEVICE_SORTS = ['name', 'port', 'run_count', 'created_at'] as const;
export const GROUP_SORTS = ['name', 'no_of_devices', 'created_at', 'updated_at'] as const;

const Name = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });
const Description = Type.String({ maxLength: 1000 });
const Ref = (what: string) => Nullable(Id(`${what} id; null to clear`));

export const Device = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    port: Type.Optional(Type.Integer({ description: 'Port of a device on the user\'s machine; absent for cloud devices' })),
    macro_id: Type.Optional(Type.Integer()),
    profile_id: Type.Optional(Type.Integer({ description: 'The settings profile the device follows' })),
    group_id: Type.Optional(Type.Integer()),
    run_count: Type.Integer(),
    is_hosted: Type.Boolean(),
    hosted_state: Type.Optional(StringEnum(HOSTED_STATES, { description: 'Cloud devices only' })),
    hosted_state_message: Type.Optional(Type.String({ description: 'Why a cloud device is in `error`; absent in every other state' })),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { $id: 'Device' },
);

export const DeviceGroup = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    description: Type.Optional(Type.String()),
    kind: StringEnum(GROUP_KINDS, { description: '`byod`: devices on the user\'s own machine; `cloud`: cloud devices' }),
    no_of_devices: Type.Integer(),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { $id: 'DeviceGroup' },
);

export const DevicePage = Paged(Device, 'DevicePage');
export const GroupPage = Paged(DeviceGroup, 'DeviceGroupPage');

export const DeviceListQuery = Type.Object(
  {
    macro_id: Type.Optional(Id('Only devices following this macro')),
    group_id: Type.Optional(Id('Only devices in this group')),
    name: Type.Optional(Type.String({ maxLength: 100, description: 'Case-insensitive substring' })),
    sort: SortQuery(DEVICE_SORTS, 'name'),
    ...PageQuery,
  },
  { additionalProperties: false },
);
export type DeviceListInput = Static<typeof DeviceListQuery>;

export const GroupListQuery = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 100, description: 'Case-insensitive substring' })),
    description: Type.Optional(Type.String({ maxLength: 1000, description: 'Case-insensitive substring' })),
    sort: SortQuery(GROUP_SORTS, 'name'),
    ...PageQuery,
  },
  { additionalProperties: false },
);
export type GroupListInput = Static<typeof GroupListQuery>;

export const CreateGroupBody = Type.Object(
  { name: Name, description: Type.Optional(Description), kind: StringEnum(GROUP_KINDS) },
  { additionalProperties: false },
);
export type CreateGroupInput = Static<typeof CreateGroupBody>;
export const UpdateGroupBody = Type.Object(
  { name: Type.Optional(Name), description: Type.Optional(Nullable(Description)) },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateGroupInput = Static<typeof UpdateGroupBody>;

export const CreateDeviceBody = Type.Object(
  { name: Name, port: Type.Integer({ minimum: 1, maximum: 65535 }), group_id: Type.Optional(Ref('A byod group')) },
  { additionalProperties: false },
);
export type CreateDeviceInput = Static<typeof CreateDeviceBody>;
export const CreateCloudDeviceBody = Type.Object(
  { name: Name, group_id: Type.Optional(Ref('A cloud group')) },
  { additionalProperties: false },
);
export type CreateCloudDeviceInput = Static<typeof CreateCloudDeviceBody>;
export const UpdateDeviceBody = Type.Object(
  {
    name: Type.Optional(Name),
    group_id: Type.Optional(Ref('A group of the device\'s kind')),
    macro_id: Type.Optional(Ref('The macro to follow')),
    profile_id: Type.Optional(Ref('A profile of that macro; omitted with a new macro_id = the macro\'s Default')),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateDeviceInput = Static<typeof UpdateDeviceBody>;

// Cloud device actions (app-api.md, "Devices and groups").
export const ScreenshotQuery = Type.Object(
  {
    format: Type.Optional(StringEnum(['png', 'jpeg'] as const, { default: 'png', description: '`png` (default) or `jpeg` (quality 80)' })),
    max_edge: Type.Optional(Type.Integer({ minimum: 64, maximum: 4096, description: 'Scale down so the longer edge is at most this many pixels; default the full size' })),
  },
  { additionalProperties: false },
);
export const LiveQuery = Type.Object(
  { fps: Type.Optional(Type.Integer({ minimum: 1, maximum: 10, default: 4, description: 'Frames per second, 1 to 10 (default 4)' })) },
  { additionalProperties: false },
);
export const InstalledApp = Type.Object({ package: Type.String(), label: Type.String(), version_name: Type.String() }, { $id: 'InstalledApp' });
export const InstalledAppList = Type.Object({ items: Type.Array(InstalledApp) }, { $id: 'InstalledAppList' });
export const InstalledApk = Type.Object(
  { package: Type.String(), label: Type.String(), version_name: Type.String(), version_code: Type.Integer() },
  { $id: 'InstalledApk' },
);

/** A tap on the live view (our extension, docs/cloud-devices.md): device pixels, checked against the screen by the driver. */
export const TapBody = Type.Object(
  {
    x: Type.Integer({ minimum: 0, maximum: 100_000, description: 'Device pixels from the left, within the screen' }),
    y: Type.Integer({ minimum: 0, maximum: 100_000, description: 'Device pixels from the top, within the screen' }),
  },
  { additionalProperties: false },
);
/** An element of the UI tree (hosts/types.ts UiElement), the one schema every transport answers it with. */
const UiElementProperties = {
  element_id: Type.String(),
  class: Type.String(),
  text: Type.String(),
  resource_id: Type.String(),
  content_desc: Type.String(),
  bounds: Type.Object({ left: Type.Integer(), top: Type.Integer(), right: Type.Integer(), bottom: Type.Integer() }),
  clickable: Type.Boolean(),
  editable: Type.Boolean(),
  scrollable: Type.Boolean({ description: 'A container that scrolls (a RecyclerView, a ScrollView); false on other elements' }),
  focused: Type.Optional(Type.Boolean()),
};

/** The element with its centre in device pixels, as the SDK and the tool server answer it (find-element.ts withCenter). */
export const UiElementWithCenter = Type.Object(
  { ...UiElementProperties, center: Type.Object({ x: Type.Integer(), y: Type.Integer() }) },
  { description: 'An element of the UI tree, with its centre in device pixels' },
);

export const TappedElement = Type.Object(
  UiElementProperties,
  { $id: 'TappedElement', description: 'The element the tap landed on (the topmost clickable one), bounds in device pixels' },
);
export const TapAnswer = Type.Object({ element: Nullable(TappedElement) }, { $id: 'TapAnswer' });
