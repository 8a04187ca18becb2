package io.eventide.security;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroupsPostProcessor;
import org.springframework.boot.security.oauth2.server.resource.autoconfigure.reactive.JwkSetUriReactiveJwtDecoderBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.reactive.EnableWebFluxSecurity;
import org.springframework.security.config.web.server.SecurityWebFiltersOrder;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.jwt.ReactiveJwtDecoder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationConverter;
import org.springframework.security.oauth2.server.resource.authentication.JwtGrantedAuthoritiesConverter;
import org.springframework.security.oauth2.server.resource.authentication.ReactiveJwtAuthenticationConverterAdapter;
import org.springframework.security.oauth2.server.resource.web.server.authentication.ServerBearerTokenAuthenticationConverter;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.security.web.server.authentication.AuthenticationWebFilter;
import org.springframework.security.web.server.authentication.ServerAuthenticationEntryPointFailureHandler;
import org.springframework.security.web.server.context.NoOpServerSecurityContextRepository;
import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.cors.reactive.CorsConfigurationSource;
import org.springframework.web.cors.reactive.UrlBasedCorsConfigurationSource;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Who may call what (docs/security.md). Off unless {@code eventide.security.enabled}: then every
 * request is permitted, and a warning at start-up says so.
 */
@Configuration(proxyBeanMethods = false)
@EnableWebFluxSecurity
@EnableConfigurationProperties(SecurityProperties.class)
class SecurityConfiguration {
  private static final Logger log = LoggerFactory.getLogger(SecurityConfiguration.class);
  private static final String[] READ_ROUTES = {
    "/pipelines/{name}",
    "/pipelines/{name}/panes",
    "/pipelines/{name}/results",
    "/pipelines/{name}/windows",
    "/pipelines/{name}/dead-letters",
    "/pipelines/{name}/watermark",
    "/pipelines/{name}/lateness"
  };

  @Bean
  SecurityWebFilterChain eventideSecurity(
      ServerHttpSecurity http,
      SecurityProperties properties,
      ApiKeyStore keys,
      ObjectProvider<ReactiveJwtDecoder> jwtDecoders,
      RateLimiter limiter) {
    http.csrf(ServerHttpSecurity.CsrfSpec::disable)
        .httpBasic(ServerHttpSecurity.HttpBasicSpec::disable)
        .formLogin(ServerHttpSecurity.FormLoginSpec::disable)
        .logout(ServerHttpSecurity.LogoutSpec::disable)
        .requestCache(ServerHttpSecurity.RequestCacheSpec::disable)
        .securityContextRepository(NoOpServerSecurityContextRepository.getInstance());
    CorsConfigurationSource cors = cors(properties.cors());
    if (cors == null) {
      http.cors(ServerHttpSecurity.CorsSpec::disable);
    } else {
      http.cors(c -> c.configurationSource(cors));
    }
    if (!properties.enabled()) {
      log.warn(
          "Security is OFF: every request is permitted without credentials. Set"
              + " eventide.security.enabled=true (the prod profile does) before exposing Eventide.");
      return http.authorizeExchange(a -> a.anyExchange().permitAll()).build();
    }
    SecurityProperties.FailedAuthentications f = properties.failedAuthentications();
    ProblemEntryPoint entryPoint;
    if (f.perSecond() > 0) {
      AuthenticationFailures failures =
          new AuthenticationFailures(
              new InMemoryRateLimiter(
                  f.perSecond(), f.burst(), f.maxAddresses(), System::nanoTime));
      http.addFilterBefore(failures, SecurityWebFiltersOrder.AUTHENTICATION);
      entryPoint = new ProblemEntryPoint(failures::failed);
    } else {
      entryPoint = new ProblemEntryPoint(exchange -> {});
    }
    ProblemAccessDeniedHandler denied = new ProblemAccessDeniedHandler();
    http.exceptionHandling(e -> e.authenticationEntryPoint(entryPoint).accessDeniedHandler(denied));

    AuthenticationWebFilter apiKeys =
        new AuthenticationWebFilter(new ApiKeyAuthenticationManager(keys));
    apiKeys.setServerAuthenticationConverter(new ApiKeyConverter());
    apiKeys.setAuthenticationFailureHandler(
        new ServerAuthenticationEntryPointFailureHandler(entryPoint));
    http.addFilterAt(apiKeys, SecurityWebFiltersOrder.AUTHENTICATION);

    ReactiveJwtDecoder decoder = jwtDecoders.getIfAvailable();
    if (decoder != null) {
      ReactiveJwtDecoder checked =
          properties.jwt().audience().isEmpty()
              ? decoder
              : new AudienceCheckingDecoder(decoder, properties.jwt().audience());
      http.oauth2ResourceServer(
          o ->
              o.authenticationEntryPoint(entryPoint)
                  .accessDeniedHandler(denied)
                  .bearerTokenConverter(jwtsOnly())
                  .jwt(j -> j.jwtDecoder(checked).jwtAuthenticationConverter(scopes())));
    } else {
      log.info("No JWT issuer configured: only API keys authenticate");
    }
    if (properties.rateLimit().perSecond() > 0) {
      http.addFilterAfter(new RateLimitFilter(limiter), SecurityWebFiltersOrder.AUTHORIZATION);
    }
    return http.authorizeExchange(SecurityConfiguration::routes).build();
  }

  /**
   * Every route is named with its methods, and whatever no rule names is denied: a rule that
   * matched too little must fail closed, not fall through to "any credential". HEAD is answered by
   * the GET handler, so it is granted exactly where GET is.
   */
  private static void routes(ServerHttpSecurity.AuthorizeExchangeSpec a) {
    a.pathMatchers("/actuator/health", "/actuator/health/**")
        .permitAll()
        .pathMatchers("/actuator", "/actuator/**")
        .access(PipelineAccess.everyPipeline(Grants::canAdminister))
        .pathMatchers("/v3/api-docs", "/v3/api-docs/**", "/swagger-ui.html", "/swagger-ui/**")
        .permitAll()
        .pathMatchers(HttpMethod.POST, "/admin/api-keys")
        .access(PipelineAccess.everyPipeline(Grants::canAdminister))
        .pathMatchers(HttpMethod.PUT, "/pipelines/{name}")
        .access(PipelineAccess.admin())
        .pathMatchers(HttpMethod.DELETE, "/pipelines/{name}")
        .access(PipelineAccess.admin())
        .pathMatchers(HttpMethod.POST, "/pipelines/{name}/events", "/pipelines/{name}/watermark")
        .access(PipelineAccess.producer())
        .pathMatchers(HttpMethod.POST, "/streams/{name}/events", "/streams/{name}/watermark")
        .access(PipelineAccess.streamProducer())
        .pathMatchers(HttpMethod.POST, "/simulate")
        .access(PipelineAccess.anyAdmin());
    for (HttpMethod read : new HttpMethod[] {HttpMethod.GET, HttpMethod.HEAD}) {
      a.pathMatchers(read, "/", "/index.html", "/dashboard/**", "/webjars/**")
          .permitAll()
          .pathMatchers(read, "/pipelines", "/pipelines/status")
          .access(PipelineAccess.everyPipeline(Grants::canRead))
          .pathMatchers(read, READ_ROUTES)
          .access(PipelineAccess.reader());
    }
    a.anyExchange().denyAll();
  }

  /** The resource server sees only bearer tokens shaped like a JWT; the rest are API keys. */
  private static ServerBearerTokenAuthenticationConverter jwtsOnly() {
    return new ServerBearerTokenAuthenticationConverter() {
      @Override
      public Mono<Authentication> convert(ServerWebExchange exchange) {
        String bearer = ApiKeyConverter.bearer(exchange.getRequest().getHeaders());
        return bearer != null && ApiKeyConverter.isJwt(bearer)
            ? super.convert(exchange)
            : Mono.empty();
      }
    };
  }

  /** Scopes become authorities as they are: {@code eventide:read:orders} and so on. */
  private static ReactiveJwtAuthenticationConverterAdapter scopes() {
    JwtGrantedAuthoritiesConverter authorities = new JwtGrantedAuthoritiesConverter();
    authorities.setAuthorityPrefix("");
    JwtAuthenticationConverter converter = new JwtAuthenticationConverter();
    converter.setJwtGrantedAuthoritiesConverter(authorities);
    return new ReactiveJwtAuthenticationConverterAdapter(converter);
  }

  private static CorsConfigurationSource cors(SecurityProperties.Cors properties) {
    if (properties.allowedOrigins().isEmpty()) {
      return null;
    }
    CorsConfiguration config = new CorsConfiguration();
    config.setAllowedOrigins(properties.allowedOrigins());
    config.addAllowedMethod("*");
    config.addAllowedHeader("*");
    config.addExposedHeader("Retry-After");
    config.addExposedHeader("WWW-Authenticate");
    UrlBasedCorsConfigurationSource source = new UrlBasedCorsConfigurationSource();
    source.registerCorsConfiguration("/**", config);
    return source;
  }

  /**
   * With the Redis store the limiter is Redis's ({@code StateConfiguration}), shared by replicas.
   */
  @Bean
  @ConditionalOnProperty(
      name = "eventide.state.store",
      havingValue = "memory",
      matchIfMissing = true)
  RateLimiter rateLimiter(SecurityProperties properties) {
    return InMemoryRateLimiter.of(properties.rateLimit());
  }

  /** Health details for the global admin only, whenever security is on ({@link HealthDetails}). */
  @Bean
  @ConditionalOnBooleanProperty("eventide.security.enabled")
  HealthEndpointGroupsPostProcessor healthDetails() {
    return new HealthDetails();
  }

  /** Applies to the decoder Spring Boot builds from {@code jwk-set-uri} or {@code issuer-uri}. */
  @Bean
  JwkSetUriReactiveJwtDecoderBuilderCustomizer keySetFetchThrottle(SecurityProperties properties) {
    KeySetFetchThrottle throttle =
        new KeySetFetchThrottle(properties.jwt().keySetRefetchInterval(), System::nanoTime);
    return builder -> builder.webClient(WebClient.builder().filter(throttle).build());
  }
}
