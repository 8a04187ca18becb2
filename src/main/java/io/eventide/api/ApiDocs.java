package io.eventide.api;

/** References into the components of openapi.yaml, for the controllers' springdoc annotations. */
final class ApiDocs {
  static final String PIPELINE_DEFINITION = "#/components/schemas/PipelineDefinition";
  static final String PIPELINE = "#/components/schemas/Pipeline";
  static final String SIMULATE_REQUEST = "#/components/schemas/SimulateRequest";
  static final String SIMULATE_RESPONSE = "#/components/schemas/SimulateResponse";
  static final String BAD_REQUEST = "#/components/responses/BadRequest";
  static final String NOT_FOUND = "#/components/responses/NotFound";
  static final String UNSUPPORTED_MEDIA_TYPE = "#/components/responses/UnsupportedMediaType";

  private ApiDocs() {}
}
