// Shows a failure as the sentence the API wrote, with the per-field list of a 422.
import { Alert, List } from '@mantine/core';
import { ApiError, messageOf } from '../api/errors';

export function ErrorAlert({ error, title = 'That did not work' }: { error: unknown; title?: string }) {
  if (!error) return null;
  const fields = error instanceof ApiError ? error.fieldErrors : [];
  return (
    <Alert color="red" variant="light" title={title} role="alert" mb="md">
      {messageOf(error)}
      {fields.length > 1 && (
        <List size="sm" mt="xs">
          {fields.map((field) => (
            <List.Item key={field.path + field.message}>
              <code>{field.path}</code> {field.message}
            </List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}
