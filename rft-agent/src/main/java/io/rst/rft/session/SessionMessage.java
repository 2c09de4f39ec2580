/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.session;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.math.BigDecimal;

/**
 * One CM message of a session as this switch saw it.
 *
 * @param msg the message name (REQ, REP ...)
 * @param ingressPort the port (interface) it came in on, or null when unknown (files)
 * @param time capture time, seconds since the epoch (microsecond precision)
 * @param fromRequester whether the requester of the session sent it (relative to the record's
 *        requester fields, a guess when the record's roles_known is false)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SessionMessage(
        @JsonProperty("msg") String msg,
        @JsonProperty("ingress_port") String ingressPort,
        @JsonProperty("time") BigDecimal time,
        @JsonProperty("from_requester") boolean fromRequester) {
    public SessionMessage {
        requireNonNull(msg);
        requireNonNull(time);
    }
}
