// The messages are browser-safe (the /auth page shows some); they live beside its components.
export { authMessages, tooManyAttemptsMessage } from "~/components/auth/messages";
