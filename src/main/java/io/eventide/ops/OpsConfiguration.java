package io.eventide.ops;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;

/** Binds the settings of health checks and metrics. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({HealthProperties.class, MetricsProperties.class})
public class OpsConfiguration {}
