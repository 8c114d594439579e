export * from "./catalogue";
export * from "./contact";
export * from "./auth";
export * from "./activity";
export * from "./mail";
export * from "./audit";
export * from "./about";
