package io.eventide.security;

import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.health.actuate.endpoint.AdditionalHealthEndpointPath;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroup;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroupsPostProcessor;
import org.springframework.boot.health.actuate.endpoint.HttpCodeStatusMapper;
import org.springframework.boot.health.actuate.endpoint.StatusAggregator;
import org.springframework.security.core.Authentication;

/**
 * With security on, health details (disk paths, Redis, pipelines) are shown to the global admin
 * only, in every health group and whatever the profile: the health routes are open to anyone for
 * the probes, and {@code show-details: always}, the default profile's, would otherwise show them to
 * anyone too. Component statuses are shown as configured; the probes read those.
 */
final class HealthDetails implements HealthEndpointGroupsPostProcessor {

  @Override
  public HealthEndpointGroups postProcessHealthEndpointGroups(HealthEndpointGroups groups) {
    Map<String, HealthEndpointGroup> named =
        groups.getNames().stream()
            .collect(Collectors.toMap(Function.identity(), name -> admins(groups.get(name))));
    return HealthEndpointGroups.of(admins(groups.getPrimary()), named);
  }

  static boolean globalAdmin(SecurityContext context) {
    return context.getPrincipal() instanceof Authentication a
        && a.isAuthenticated()
        && Grants.fromAuthorities(a.getAuthorities()).isGlobalAdmin();
  }

  private static HealthEndpointGroup admins(HealthEndpointGroup group) {
    return new HealthEndpointGroup() {
      @Override
      public boolean isMember(String name) {
        return group.isMember(name);
      }

      @Override
      public boolean showComponents(SecurityContext context) {
        return group.showComponents(context);
      }

      @Override
      public boolean showDetails(SecurityContext context) {
        return globalAdmin(context) && group.showDetails(context);
      }

      @Override
      public StatusAggregator getStatusAggregator() {
        return group.getStatusAggregator();
      }

      @Override
      public HttpCodeStatusMapper getHttpCodeStatusMapper() {
        return group.getHttpCodeStatusMapper();
      }

      @Override
      public AdditionalHealthEndpointPath getAdditionalPath() {
        return group.getAdditionalPath();
      }
    };
  }
}
