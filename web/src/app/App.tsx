// The console: the sign-in gate, then the shell with the page for the current path.
import { Alert, Button, Center, Stack, Text, Title } from '@mantine/core';
import { type ReactNode, Suspense, useEffect } from 'react';
import { messageOf } from '../api/errors';
import { Loading } from '../components/Loading';
import { SignInPage } from '../pages/auth/SignInPage';
import { SignUpPage } from '../pages/auth/SignUpPage';
import { SessionProvider, useSession } from '../state/session';
import { Link, matchPath, navigate, useLocation } from './router';
import { ROUTES } from './routes';
import { Shell } from './Shell';

export function App() {
  return (
    <SessionProvider>
      <Gate />
    </SessionProvider>
  );
}

const PUBLIC_PATHS = ['/signin', '/signup'];

function Gate() {
  const { user, bootError, refresh } = useSession();
  const { path, query } = useLocation();
  const isPublic = PUBLIC_PATHS.includes(path);

  useEffect(() => {
    if (user === null && !isPublic) navigate(`/signin?next=${encodeURIComponent(path)}`, { replace: true });
    if (user && isPublic) navigate(safeNext(query.get('next')), { replace: true });
  }, [user, isPublic, path, query]);

  if (bootError && user === undefined) {
    return (
      <Center h="100vh">
        <Stack align="center" maw={460}>
          <Title order={1} fz="xl">The console cannot reach the service</Title>
          <Alert color="red" role="alert">{messageOf(bootError)}</Alert>
          <Button onClick={() => void refresh()}>Try again</Button>
        </Stack>
      </Center>
    );
  }
  if (user === undefined) return <Loading label="Opening the console…" />;
  if (user === null) {
    if (path === '/signup') return <SignUpPage />;
    return <SignInPage />;
  }
  if (isPublic) return <Loading />;
  return (
    <Shell>
      <CurrentPage path={path} />
    </Shell>
  );
}

/** Only a path inside the console, never another site. */
function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

function CurrentPage({ path }: { path: string }) {
  for (const route of ROUTES) {
    const params = matchPath(route.pattern, path);
    if (params) return <Titled title={route.title} key={route.pattern}><Suspense fallback={<Loading />}><route.page params={params} /></Suspense></Titled>;
  }
  return (
    <Titled title="Not found">
      <Stack align="flex-start" py="xl">
        <Title order={1} fz={26}>This page does not exist</Title>
        <Text c="dimmed">There is no console page at <code>{path}</code>.</Text>
        <Button component={Link} to="/">Go to the overview</Button>
      </Stack>
    </Titled>
  );
}

function Titled({ title, children }: { title: string; children: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Automation service`;
  }, [title]);
  return <>{children}</>;
}
