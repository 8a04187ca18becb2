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
  static final String CONFLICT = "#/components/responses/Conflict";
  static final String PAYLOAD_TOO_LARGE = "#/components/responses/PayloadTooLarge";
  static final String EVENT_BODY = "#/components/schemas/EventBody";
  static final String INGEST_RESULT = "#/components/schemas/IngestResult";
  static final String WATERMARK_POST = "#/components/schemas/WatermarkPost";
  static final String WATERMARK_POST_RESULT = "#/components/schemas/WatermarkPostResult";
  static final String WATERMARKS = "#/components/schemas/Watermarks";
  static final String RESULTS = "#/components/schemas/Results";
  static final String WINDOWS = "#/components/schemas/Windows";
  static final String DEAD_LETTERS = "#/components/schemas/DeadLetters";

  private ApiDocs() {}
}
