// The recorder's routes (decisions.md §18; ../recorder-contract.md): session-only application
// routes behind the console's "Record" on a cloud device's live view. Thin: parse, call the
// service, answer.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors, IdParams } from '../../core/schema.js';
import { contextOf } from '../../http/request-context.js';
import { sessionRoute } from '../../http/route-auth.js';
import { CloudRun } from '../runs/index.js';
import type { RecorderInputs } from './inputs.js';
import { CandidateList, CheckBody, ChooseBody, CurrentRecording, InputBody, Macro, Recording, RecordingParams, ReplayBody, SaveBody, StepAnswer, StepParams } from './schemas.js';
import type { RecorderService } from './service.js';

const tags = ['recorder'];
/** A JPEG answer, described with its real content type (as the device routes describe screenshots). */
const jpeg = (description: string) => ({ description, content: { 'image/jpeg': { schema: { type: 'string', format: 'binary', contentMediaType: 'image/jpeg' } as Record<string, string> } } });
const ENDED = '409 `recording_stopped` once the recording has ended (stopped, replayed, idle for 15 minutes, or its device stopped).';
const NOT_READY = '409 `device_not_ready` unless the device is `ready`.';

export function recorderRoutes(recorder: RecorderService, inputs: RecorderInputs): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/api/hosted/devices/:id/recording',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'startRecording',
          tags,
          summary: 'Start recording a cloud device',
          description: `Starts recording what you do on the device's live view (decisions.md §18). The recording holds the device as a lease does: while it lasts a run, a lease, a map exploration, another recording and the live view's tap answer 409 \`device_busy\`; every input extends it, and 15 minutes without one end it. 409 \`device_busy\` when the device has an active run, a lease, an exploration or a recording; ${NOT_READY} 404 \`not_a_cloud_device\` for a device on your own machine.`,
          params: IdParams,
          response: { 201: Recording, ...errors(404, 409, 422) },
        },
      },
      async (request, reply) => reply.code(201).send(await recorder.start(contextOf(request), request.params.id)),
    );
    app.get(
      '/api/hosted/devices/:id/recording',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'getDeviceRecording',
          tags,
          summary: "The device's recording under way",
          description: "`{recording}`: the recording in state `recording` on this device, or null when there is none (a console opening the device asks, so no recording is no error). Someone else's device answers 404.",
          params: IdParams,
          response: { 200: CurrentRecording, ...errors(404, 422) },
        },
      },
      async (request) => recorder.current(contextOf(request), request.params.id),
    );
    app.get(
      '/api/hosted/recordings/:rid',
      {
        config: sessionRoute(),
        schema: { operationId: 'getRecording', tags, summary: 'A recording and its steps', description: "The recording with its steps in order, each with its selector, its candidates and its frame's address. A recording whose hold ran out reads as `stopped`.", params: RecordingParams, response: { 200: Recording, ...errors(404, 422) } },
      },
      async (request) => recorder.get(contextOf(request), request.params.rid),
    );
    app.post(
      '/api/hosted/recordings/:rid/inputs',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'recordInput',
          tags,
          summary: 'Perform an input on the device and record it as a step',
          description: `Performs the input on the device through the device-action catalogue, then records it: a tap, long press or typed text with the first selector of §18's order that names its element alone on the screen read just before (resource_id, text, desc, resource_id or text with index, an image crop saved to the image library, coordinates marked fragile), with every candidate kept; a swipe or key as it is. Text typed on into the same field stays one \`type\` step. ${ENDED} ${NOT_READY}`,
          params: RecordingParams,
          body: InputBody,
          response: { 201: StepAnswer, ...errors(404, 409, 422) },
        },
      },
      async (request, reply) => reply.code(201).send({ step: recorder.presentStep(request.params.rid, await inputs.input(contextOf(request), request.params.rid, request.body)) }),
    );
    app.post(
      '/api/hosted/recordings/:rid/checks',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'recordCheck',
          tags,
          summary: 'Add a "wait for" check on the element at a point',
          description: `Records a \`wait_for\` step on the element at x, y; nothing is sent to the device. 422 \`no_element\` when no element is there. ${ENDED} ${NOT_READY}`,
          params: RecordingParams,
          body: CheckBody,
          response: { 201: StepAnswer, ...errors(404, 409, 422) },
        },
      },
      async (request, reply) => reply.code(201).send({ step: recorder.presentStep(request.params.rid, await inputs.check(contextOf(request), request.params.rid, request.body)) }),
    );
    app.get(
      '/api/hosted/recordings/:rid/steps/:seq/candidates',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'getRecordedStepCandidates',
          tags,
          summary: "A step's selector candidates, each with how many elements it names now",
          description: `Each candidate (in §18's order, coordinates last) with how many elements it names on the device's screen now, as device_find counts them (an image: its best match, 0 or 1; coordinates: 1). ${NOT_READY}`,
          params: StepParams,
          response: { 200: CandidateList, ...errors(404, 409, 422) },
        },
      },
      async (request) => inputs.candidateMatches(contextOf(request), request.params.rid, request.params.seq),
    );
    app.patch(
      '/api/hosted/recordings/:rid/steps/:seq',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'chooseRecordedStepSelector',
          tags,
          summary: "Change a step's selector to another candidate",
          description: "Makes `candidates[chosen]` the step's selector (coordinates: `selector` null, `fragile` true). 422 when the step has no such candidate.",
          params: StepParams,
          body: ChooseBody,
          response: { 200: StepAnswer, ...errors(404, 422) },
        },
      },
      async (request) => ({ step: recorder.presentStep(request.params.rid, await inputs.choose(contextOf(request), request.params.rid, request.params.seq, request.body.chosen)) }),
    );
    app.delete(
      '/api/hosted/recordings/:rid/steps/:seq',
      {
        config: sessionRoute(),
        schema: { operationId: 'deleteRecordedStep', tags, summary: 'Delete a step', description: 'Deletes the step from the recording (the other steps keep their seq); 204. A saved macro keeps the steps it was saved with.', params: StepParams, response: { 204: { type: 'null' }, ...errors(404, 422) } },
      },
      async (request, reply) => {
        await recorder.deleteStep(contextOf(request), request.params.rid, request.params.seq);
        return reply.code(204).send(null);
      },
    );
    app.get(
      '/api/hosted/recordings/:rid/steps/:seq/frame',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'getRecordedStepFrame',
          tags,
          summary: 'The screen just before a step (JPEG)',
          description: 'The screen as it was just before the step\'s input (a check: when it was picked), JPEG with the longest edge at most 720 px, as run traces keep frames.',
          params: StepParams,
          response: { 200: jpeg('The frame: JPEG, longest edge 720 px.'), ...errors(404, 422) },
        },
      },
      async (request, reply) => {
        const frame = await recorder.frame(contextOf(request), request.params.rid, request.params.seq);
        return reply.type('image/jpeg').header('cache-control', 'private, max-age=31536000, immutable').send(frame);
      },
    );
    app.post(
      '/api/hosted/recordings/:rid/save',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'saveRecording',
          tags,
          summary: 'Save the steps so far as a new macro',
          description:
            'A new block macro (§11, §16 steps) or a new code macro whose `src/app.py` uses `svc_device.locate`; the recording goes on. A tap on a dialog\'s button becomes an interrupt, and swipes that lead to an element become `scroll_to` it (docs/recorder.md). 201 with the macro, as `POST /api/macros` answers. 422 when the recording has no steps.',
          params: RecordingParams,
          body: SaveBody,
          response: { 201: Macro, ...errors(404, 422) },
        },
      },
      async (request, reply) => reply.code(201).send(await recorder.save(contextOf(request), request.params.rid, request.body)),
    );
    app.post(
      '/api/hosted/recordings/:rid/stop',
      {
        config: sessionRoute(),
        schema: { operationId: 'stopRecording', tags, summary: 'Stop recording (the device is free)', description: 'Ends the recording and frees the device; an ended recording is answered as it is.', params: RecordingParams, response: { 200: Recording, ...errors(404, 422) } },
      },
      async (request) => recorder.stop(contextOf(request), request.params.rid),
    );
    app.post(
      '/api/hosted/recordings/:rid/replay',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'replayRecording',
          tags,
          summary: 'End the recording and run a saved macro on the same device',
          description: "Ends the recording and starts a cloud run of the macro on the recording's device, from wherever the device is: 201 with the cloud run record, as `POST /api/hosted/devices/{id}/run` answers, with the same refusals (404 for a macro that is not yours, 409 `macro_not_runnable`, 503 `runs_unavailable`); a refused start leaves the recording as it was.",
          params: RecordingParams,
          body: ReplayBody,
          response: { 201: CloudRun, ...errors(404, 409, 422, 503) },
        },
      },
      async (request, reply) => reply.code(201).send(await recorder.replay(contextOf(request), request.params.rid, request.body.macro_id)),
    );
  };
}
