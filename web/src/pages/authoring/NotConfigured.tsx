// What the authoring pages show when the server has no model endpoint (503
// `authoring_unavailable`): that the agent is off, and how the operator turns it on.
import { Alert, Code, Text } from '@mantine/core';
import { messageOf } from '../../api/errors';

export function NotConfigured({ error }: { error: unknown }) {
  return (
    <Alert color="yellow" variant="light" title="Authoring is not configured on this server" role="status" mb="lg">
      <Text size="sm" mb="xs">{messageOf(error)}</Text>
      <Code block>{'AUTHOR_LLM_URL=http://127.0.0.1:11434/v1   # Ollama, vLLM, llama.cpp or a hosted API\nAUTHOR_LLM_MODEL=qwen2.5-coder:14b\nAUTHOR_LLM_API_KEY=…                        # hosted models only'}</Code>
      <Text size="sm" mt="xs">Set these where the service starts and restart it; docs/authoring.md has the details.</Text>
    </Alert>
  );
}
