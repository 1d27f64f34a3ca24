package dev.dlock.resp;

import java.util.ArrayList;
import java.util.List;

/** A {@code SUBSCRIBE} or {@code UNSUBSCRIBE} of one channel, completed by Redis' confirmation. */
final class PubSubOp extends Pending<Void> {
    final boolean subscribe;
    final String channel;
    /** For a subscribe that restores a wanted channel on a link, its attempt (1 for the first); else 0. */
    final int restoreAttempt;
    /** Subscribes issued while disconnected that this restoring subscribe confirms too. */
    private List<PubSubOp> followers;

    PubSubOp(boolean subscribe, String channel, long deadline) {
        this(subscribe, channel, deadline, 0);
    }

    private PubSubOp(boolean subscribe, String channel, long deadline, int restoreAttempt) {
        super(deadline);
        this.subscribe = subscribe;
        this.channel = channel;
        this.restoreAttempt = restoreAttempt;
    }

    /** A subscribe the channel sends by itself to restore a wanted channel, {@code attempt} counted from 1. */
    static PubSubOp restore(String channel, long deadline, int attempt) {
        return new PubSubOp(true, channel, deadline, attempt);
    }

    /** Makes {@code op} complete with this one; called before this op is queued. */
    void carry(PubSubOp op) {
        if (followers == null) {
            followers = new ArrayList<>();
        }
        followers.add(op);
    }

    /**
     * Completes this op and what it carries, through every level: a restore lost before its confirmation is itself
     * carried by the next connection's restore.
     */
    void confirm() {
        complete(null);
        if (followers != null) {
            for (PubSubOp op : followers) {
                op.confirm();
            }
        }
    }

    @Override
    void fail(Throwable failure) {
        completeExceptionally(failure);
        if (followers != null) {
            for (PubSubOp op : followers) {
                op.fail(failure);
            }
        }
    }
}
