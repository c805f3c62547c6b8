// The plan, read afresh from the billing route.
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';

export const subscription = () => unwrap(api.GET('/api/billing/subscription'));
