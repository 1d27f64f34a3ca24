package dev.dlock.resp;

import java.util.ArrayList;
import java.util.List;

/** A {@code SUBSCRIBE} or {@code UNSUBSCRIBE} of one channel, completed by Redis' confirmation. */
final class PubSubOp extends Pending<Void> {
    final boolean subscribe;
    final String channel;
    /** Subscribes issued while disconnected that this restoring subscribe confirms too. */
    private List<PubSubOp> followers;

    PubSubOp(boolean subscribe, String channel, long deadline) {
        super(deadline);
        this.subscribe = subscribe;
        this.channel = channel;
    }

    /** Makes {@code op} complete with this one; called before this op is queued. */
    void carry(PubSubOp op) {
        if (followers == null) {
            followers = new ArrayList<>();
        }
        followers.add(op);
    }

    void confirm() {
        complete(null);
        if (followers != null) {
            for (PubSubOp op : followers) {
                op.complete(null);
            }
        }
    }

    @Override
    void fail(Throwable failure) {
        completeExceptionally(failure);
        if (followers != null) {
            for (PubSubOp op : followers) {
                op.completeExceptionally(failure);
            }
        }
    }
}
