// The image library's shapes (app-api.md "Image library").
import { type Static, Type } from 'typebox';
import { PageQuery, Paged } from '../../core/paging.js';
import { DateTime, StringEnum } from '../../core/schema.js';
import { IMAGE_CONTENT_TYPES, IMAGE_SOURCES } from '../../core/values.js';

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
