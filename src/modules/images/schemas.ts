// The image library's shapes (app-api.md "Image library").
import { type Static, Type } from 'typebox';
import { PageQuery, Paged } from '../../core/paging.js';
import { DateTime, StringEnum } from '../../core/schema.js';
import { IMAGE_CONTENT_TYPES, IMAGE_SOURCES } from '../../core/values.js';
import { MIN_TEMPLATE_SIDE } from '../vision/index.js';

export const ImageId = Type.String({ pattern: '^img_[0-9a-f]{16}$', description: 'An image-library id: `img_` + 16 lowercase hex' });
export const ImageName = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', description: '1 to 100 characters' });

export const Image = Type.Object(
  {
    id: ImageId,
    name: Type.String(),
    width: Type.Integer({ description: 'Read from the picture' }),
    height: Type.Integer({ description: 'Read from the picture' }),
    content_type: StringEnum(IMAGE_CONTENT_TYPES),
    size_bytes: Type.Integer(),
    source: StringEnum(IMAGE_SOURCES, { description: '`upload` (a person uploaded it) or `crop` (cut from a device screen: by template_crop, or a menu map screen thumbnail, decisions.md §13)' }),
    created_at: DateTime(),
  },
  { $id: 'Image' },
);

// No maxLength on the picture: a body over the route's limit answers 413, and so does a
// picture that decodes to more than 5 MiB, never a 422.
export const UploadImageBody = Type.Object(
  { name: ImageName, image_base64: Type.String({ minLength: 1, description: 'The PNG or JPEG file, standard base64; at most 5 MiB decoded' }) },
  { additionalProperties: false },
);

const Pixel = Type.Integer({ minimum: 0, maximum: 100_000, description: 'Device pixels' });
const Side = Type.Integer({ minimum: MIN_TEMPLATE_SIDE, maximum: 100_000, description: `Device pixels, at least ${MIN_TEMPLATE_SIDE} (a smaller template cannot be matched)` });

/** The console's "crop from the live view": a rectangle of a ready cloud device's screen. */
export const CropImageBody = Type.Object(
  { device_id: Type.Integer({ minimum: 1, description: 'One of your cloud devices, `ready`' }), x: Pixel, y: Pixel, w: Side, h: Side, name: ImageName },
  { additionalProperties: false },
);

export const ImageListQuery = Type.Object(
  {
    ...PageQuery,
    name: Type.Optional(Type.String({ maxLength: 100, description: 'Case-insensitive substring of the name' })),
    source: Type.Optional(StringEnum(IMAGE_SOURCES, { description: 'Only images that came in this way' })),
  },
  { additionalProperties: false },
);
export type ImageListQueryInput = Static<typeof ImageListQuery>;

export const ImageIdParams = Type.Object({ id: Type.String({ maxLength: 64, description: 'An image-library id' }) });

export const ImagePage = Paged(Image, 'ImagePage');
